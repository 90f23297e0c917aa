package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/collide3d/collide/topo"
)

// infoShown caps the offenders info prints in text (the JSON lists up to
// topo.MaxListed of each).
const infoShown = 4

// jsonTopology is the "topology" object of info --json.
type jsonTopology struct {
	Vertices                int         `json:"vertices"`
	Welded                  int         `json:"welded"`
	Edges                   int         `json:"edges"`
	Faces                   int         `json:"faces"`
	Components              int         `json:"components"`
	Euler                   int         `json:"euler"`
	Genus                   *int        `json:"genus"`
	VolumeSign              int         `json:"volume_sign"`
	Degenerate              jsonTris    `json:"degenerate"`
	Boundary                jsonEdges   `json:"boundary_edges"`
	NonManifoldEdges        jsonEdges   `json:"non_manifold_edges"`
	NonManifoldVertices     jsonTris    `json:"non_manifold_vertices"`
	Misoriented             jsonEdges   `json:"misoriented_edges"`
	Flipped                 jsonTris    `json:"flipped"`
	NonOrientableComponents int         `json:"non_orientable_components"`
	NotConvex               *jsonReflex `json:"not_convex"`
}

// jsonEdges is a count of edges and the first of them.
type jsonEdges struct {
	Count int        `json:"count"`
	First []jsonEdge `json:"first"`
}

// jsonEdge is an edge: a triangle that uses it and the triangle's vertices
// at its ends, in the triangle's direction.
type jsonEdge struct {
	Tri int    `json:"tri"`
	V   [2]int `json:"v"`
}

// jsonTris is a count of triangles (or vertices) and the first of them.
type jsonTris struct {
	Count int   `json:"count"`
	First []int `json:"first"`
}

type jsonReflex struct {
	Reason string    `json:"reason"`
	Edge   *jsonEdge `json:"edge"`
	Vertex *int      `json:"vertex"`
}

func edgesJSON(n int, es []topo.Edge) jsonEdges {
	r := jsonEdges{Count: n, First: []jsonEdge{}}
	for _, e := range es {
		r.First = append(r.First, jsonEdge{e.Tri, e.V})
	}
	return r
}

func trisJSON(n int, ts []int) jsonTris {
	return jsonTris{Count: n, First: append([]int{}, ts...)}
}

func topologyJSON(t *topo.Topology) *jsonTopology {
	r := &jsonTopology{
		Vertices: t.Vertices, Welded: t.Welded, Edges: t.Edges, Faces: t.Faces,
		Components: t.Components, Euler: t.Euler, VolumeSign: t.VolumeSign,
		Degenerate:              trisJSON(t.NumDegenerate, t.Degenerate),
		Boundary:                edgesJSON(t.NumBoundary, t.Boundary),
		NonManifoldEdges:        edgesJSON(t.NumNonManifoldEdges, t.NonManifoldEdges),
		NonManifoldVertices:     trisJSON(t.NumNonManifoldVerts, t.NonManifoldVerts),
		Misoriented:             edgesJSON(t.NumMisoriented, t.Misoriented),
		Flipped:                 trisJSON(t.NumFlipped, t.Flipped),
		NonOrientableComponents: t.NonOrientable,
	}
	if t.Genus >= 0 {
		g := t.Genus
		r.Genus = &g
	}
	if x := t.NotConvex; x != nil {
		r.NotConvex = &jsonReflex{Reason: x.Reason}
		if x.Edge.Tri >= 0 {
			r.NotConvex.Edge = &jsonEdge{x.Edge.Tri, x.Edge.V}
		}
		if x.Vertex >= 0 {
			v := x.Vertex
			r.NotConvex.Vertex = &v
		}
	}
	return r
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// count is n and the noun for n.
func count(n int, one, many string) string { return fmt.Sprintf("%d %s", n, plural(n, one, many)) }

func fmtEdges(es []topo.Edge) string {
	var s []string
	for i, e := range es {
		if i == infoShown {
			s = append(s, "...")
			break
		}
		s = append(s, fmt.Sprintf("%d-%d (triangle %d)", e.V[0], e.V[1], e.Tri))
	}
	return strings.Join(s, ", ")
}

func fmtInts(xs []int) string {
	var s []string
	for i, x := range xs {
		if i == infoShown {
			s = append(s, "...")
			break
		}
		s = append(s, fmt.Sprint(x))
	}
	return strings.Join(s, ", ")
}

// writeTextTopology writes the flags of t on one line, its numbers on
// another, then a line for each flag that fails, naming what breaks it.
func writeTextTopology(w io.Writer, t *topo.Topology) error {
	genus := ""
	if t.Genus >= 0 {
		genus = fmt.Sprintf(", genus %d", t.Genus)
	}
	lines := []string{
		fmt.Sprintf("  topology    manifold %s, closed %s, oriented %s, outward %s, convex %s",
			yesNo(t.Manifold), yesNo(t.Closed), yesNo(t.Oriented), yesNo(t.Outward), yesNo(t.Convex)),
		fmt.Sprintf("  welded      %d vertices (%d merged), %d edges, %d faces, %s, Euler characteristic %d%s",
			t.Vertices, t.Welded, t.Edges, t.Faces, count(t.Components, "component", "components"), t.Euler, genus),
	}
	if t.NumDegenerate > 0 {
		lines = append(lines, fmt.Sprintf("  collapsed   %s after welding: %s",
			count(t.NumDegenerate, "triangle", "triangles"), fmtInts(t.Degenerate)))
	}
	if t.NumNonManifoldEdges > 0 {
		lines = append(lines, fmt.Sprintf("  manifold    no: %s of more than two triangles: %s",
			count(t.NumNonManifoldEdges, "edge", "edges"), fmtEdges(t.NonManifoldEdges)))
	}
	if t.NumNonManifoldVerts > 0 {
		lines = append(lines, fmt.Sprintf("  manifold    no: %s with more than one fan of triangles: %s",
			count(t.NumNonManifoldVerts, "vertex", "vertices"), fmtInts(t.NonManifoldVerts)))
	}
	if t.NumBoundary > 0 {
		lines = append(lines, fmt.Sprintf("  closed      no: %s: %s",
			count(t.NumBoundary, "boundary edge", "boundary edges"), fmtEdges(t.Boundary)))
	}
	if !t.Oriented {
		s := fmt.Sprintf("  oriented    no: %s: %s", count(t.NumMisoriented, "edge used twice one way", "edges used twice one way"), fmtEdges(t.Misoriented))
		if t.NumFlipped > 0 {
			s += fmt.Sprintf("; %s: %s", count(t.NumFlipped, "flipped triangle", "flipped triangles"), fmtInts(t.Flipped))
		}
		if t.NonOrientable > 0 {
			s += fmt.Sprintf("; %s that cannot be oriented", count(t.NonOrientable, "component", "components"))
		}
		lines = append(lines, s)
	}
	if t.Closed && t.Oriented && !t.Outward {
		lines = append(lines, map[int]string{-1: "  outward     no: the signed volume is negative (the triangles face inward)",
			0: "  outward     no: the signed volume is zero"}[t.VolumeSign])
	}
	if x := t.NotConvex; x != nil {
		s := "  convex      no: " + x.Reason
		switch {
		case x.Edge.Tri >= 0:
			s += fmt.Sprintf(" %d-%d (triangle %d)", x.Edge.V[0], x.Edge.V[1], x.Edge.Tri)
		case x.Vertex >= 0:
			s += fmt.Sprintf(" at vertex %d", x.Vertex)
		case x.Reason == "components":
			s += fmt.Sprintf(": %d", t.Components)
		case x.Reason == "genus":
			s += fmt.Sprintf(": Euler characteristic %d", t.Euler)
		}
		lines = append(lines, s)
	}
	_, err := io.WriteString(w, strings.Join(lines, "\n")+"\n")
	return err
}
