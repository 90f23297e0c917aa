package main

import (
	"bufio"
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/collide3d/collide/internal/jsonl"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/depth"
	"github.com/collide3d/collide/geom"
)

// check --contacts: each pose's query asks for the contact geometry of its
// pairs and their patches (collide.QueryOptions{Contacts, Patches}) and
// prints them after the pairs. A pose's result is held whole (the pairs
// and their contacts), not streamed as the plain pairs are.

// checkContacts runs check --contacts over poses, printing each pose's
// pairs, contacts and patches as they come, then, in text, a summary.
func checkContacts(e *env, o *checkOptions, poses []geom.Pose, envModel, flyModel *collide.Model) error {
	ctx := e.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	q := collide.QueryOptions{All: o.all, Eps: o.eps, MaxPairs: int(o.maxPairs), Contacts: true, Patches: true,
		Experiment: collide.Experiment{Restart: o.restart, ExactRoot: o.exactRoot}}
	var query collide.Query
	// Build what the first query would before the clock starts, so that
	// each pose's time is its own.
	if err := query.Prepare(envModel, flyModel, q); err != nil {
		return err
	}
	var done atomic.Int64
	status := startStatus(e, true, statusAfter, func(el time.Duration) string { return progressLine("check", "pose", done.Load(), len(poses), el) })
	defer status.end()
	w := bufio.NewWriter(status.output(e.stdout))
	fl := newFlusher(w)
	var hits, contacts, patches int
	var total time.Duration
	var b []byte
	for i, p := range poses {
		start := time.Now()
		query.Forget() // each pose as if alone, as check without --contacts
		r, err := query.Check(envModel, flyModel, p, q)
		if err == nil && o.depth {
			err = patchDepths(ctx, envModel, geom.Identity(), flyModel, p, r.Patches)
		}
		d := time.Since(start)
		if err != nil {
			w.Flush()
			return poseError(o, i, err)
		}
		total += d
		if r.Collide {
			hits++
		}
		contacts += len(r.Contacts)
		patches += len(r.Patches)
		if o.json {
			b = appendContactsJSON(b[:0], i, &r, d)
		} else {
			b = appendContactsText(b[:0], i, &r, o.all, d)
		}
		if _, err := w.Write(b); err != nil {
			return fmt.Errorf("writing output: %w", err)
		}
		done.Store(int64(i + 1))
		if err := fl.tick(); err != nil {
			return fmt.Errorf("writing output: %w", err)
		}
	}
	if !o.json && len(poses) > 1 {
		fmt.Fprintf(w, "%d poses, %d in contact, %d %s in %d %s, %s querying\n", len(poses), hits,
			contacts, plural(contacts, "contact", "contacts"), patches, plural(patches, "patch", "patches"), fmtDuration(total))
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	return nil
}

// patchDepths fills the depth interval of each patch of a pose (fly at
// flyPose against env at envPose) where it can be certified: for closed
// meshes, package depth's PatchDepths with its default options. A patch
// whose depth could not be certified, or all of them when a mesh is not
// closed, keep DepthKnown false ("depth": null).
func patchDepths(ctx context.Context, env *collide.Model, envPose geom.Pose, fly *collide.Model, flyPose geom.Pose, patches []collide.Patch) error {
	if len(patches) == 0 {
		return nil
	}
	return depth.PatchDepths(ctx, env, envPose, fly, flyPose, patches, depth.Options{})
}

// appendContactsJSON appends the line of check --contacts --json for pose
// i, whose query answered r in d:
//
//	{"pose":N,"collide":BOOL,"pairs":[[e,f],...],"contacts":[CONTACT,...],
//	 "patches":[PATCH,...],"stats":{...},"seconds":S}
//
// with "truncated":true after the pairs when --max-pairs stopped the
// query, each CONTACT
//
//	{"pair":[e,f],"kind":"touch"|"cross"|"apart","points":[[x,y,z],...],
//	 "normal":[x,y,z],"bound":B}
//
// in the order of the pairs, and each PATCH
//
//	{"contacts":[i,...],"pairs":[[e,f],...],"point":[x,y,z],"normal":[x,y,z],
//	 "depth":[lo,hi] or null,"manifold":[[x,y,z],...],"curves":[[[x,y,z],...],...]}
//
// Numbers have the fewest digits that read back as the same float64.
func appendContactsJSON(b []byte, i int, r *collide.Result, d time.Duration) []byte {
	b = strconv.AppendInt(append(b, `{"pose":`...), int64(i), 10)
	b = strconv.AppendBool(append(b, `,"collide":`...), r.Collide)
	b = append(b, `,"pairs":[`...)
	for j, p := range r.Pairs {
		if j > 0 {
			b = append(b, ',')
		}
		b = appendJSONPair(b, p)
	}
	b = append(b, ']')
	if r.Truncated {
		b = append(b, `,"truncated":true`...)
	}
	b = append(b, `,"contacts":[`...)
	for j := range r.Contacts {
		if j > 0 {
			b = append(b, ',')
		}
		c := &r.Contacts[j]
		b = appendJSONPair(append(b, `{"pair":`...), c.Pair)
		b = append(append(append(b, `,"kind":"`...), c.Kind.String()...), '"')
		b = appendJSONPoints(append(b, `,"points":`...), c.Points)
		b = jsonl.AppendVec(append(b, `,"normal":`...), c.Normal)
		b = jsonl.AppendNumber(append(b, `,"bound":`...), c.Bound)
		b = append(b, '}')
	}
	b = append(b, `],"patches":[`...)
	for j := range r.Patches {
		if j > 0 {
			b = append(b, ',')
		}
		pa := &r.Patches[j]
		b = append(b, `{"contacts":[`...)
		for k, c := range pa.Contacts {
			if k > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(c), 10)
		}
		b = append(b, `],"pairs":[`...)
		for k, c := range pa.Contacts {
			if k > 0 {
				b = append(b, ',')
			}
			if c >= 0 && c < len(r.Contacts) {
				b = appendJSONPair(b, r.Contacts[c].Pair)
			} else {
				b = append(b, "null"...)
			}
		}
		b = jsonl.AppendVec(append(b, `],"point":`...), pa.Point)
		b = jsonl.AppendVec(append(b, `,"normal":`...), pa.Normal)
		if pa.DepthKnown {
			b = jsonl.AppendNumber(append(b, `,"depth":[`...), pa.Depth[0])
			b = jsonl.AppendNumber(append(b, ','), pa.Depth[1])
			b = append(b, ']')
		} else {
			b = append(b, `,"depth":null`...)
		}
		b = appendJSONPoints(append(b, `,"manifold":`...), pa.Manifold)
		b = append(b, `,"curves":[`...)
		for k, c := range pa.Curves {
			if k > 0 {
				b = append(b, ',')
			}
			b = appendJSONPoints(b, c)
		}
		b = append(b, "]}"...)
	}
	st := r.Stats
	b = fmt.Appendf(b, `],"stats":{"bv_tests":%d,"tri_tests":%d,"updates":%d,"leaf_tests":%d},"seconds":`,
		st.BVTests, st.TriTests, st.Updates, st.LeafTests)
	b = jsonl.AppendNumber(b, d.Seconds())
	return append(b, "}\n"...)
}

// appendJSONPair appends p as [env,fly].
func appendJSONPair(b []byte, p collide.Pair) []byte {
	b = strconv.AppendInt(append(b, '['), int64(p.Env), 10)
	b = strconv.AppendInt(append(b, ','), int64(p.Fly), 10)
	return append(b, ']')
}

// appendJSONPoints appends ps as [[x,y,z],...] ([] when there are none).
func appendJSONPoints(b []byte, ps []geom.Vec3) []byte {
	b = append(b, '[')
	for k, p := range ps {
		if k > 0 {
			b = append(b, ',')
		}
		b = jsonl.AppendVec(b, p)
	}
	return append(b, ']')
}

// appendContactsText appends the text of check --contacts for pose i,
// whose query answered r in d: a head line, one line per contact (its
// pair, kind, points, normal and bound), then one line per patch.
func appendContactsText(b []byte, i int, r *collide.Result, all bool, d time.Duration) []byte {
	st := r.Stats
	stats := fmt.Sprintf("bv tests %d, tri tests %d, updates %d, leaf tests %d, %s", st.BVTests, st.TriTests, st.Updates, st.LeafTests, fmtDuration(d))
	if !r.Collide {
		return fmt.Appendf(b, "pose %d: no contact (%s)\n", i, stats)
	}
	more := ""
	if r.Truncated {
		more = ", stopped at --max-pairs"
	}
	what := fmt.Sprintf("%d %s", len(r.Pairs), plural(len(r.Pairs), "pair", "pairs"))
	if !all {
		what = "first pair"
	}
	b = fmt.Appendf(b, "pose %d: collide, %s%s, %d %s (%s)\n", i, what, more, len(r.Patches), plural(len(r.Patches), "patch", "patches"), stats)
	for j := range r.Contacts {
		c := &r.Contacts[j]
		pts := textPoints(c.Points)
		if c.Kind == geom.Apart {
			pts = "closest points " + textList(c.Points)
		}
		b = fmt.Appendf(b, "    contact %d: pair %d %d, %s, %s, normal %s, bound %s\n",
			j, c.Pair.Env, c.Pair.Fly, c.Kind, pts, textVec(c.Normal), formatFloat(c.Bound))
	}
	for j := range r.Patches {
		pa := &r.Patches[j]
		ids := make([]string, len(pa.Contacts))
		for k, c := range pa.Contacts {
			ids[k] = strconv.Itoa(c)
		}
		depth := "depth unknown"
		if pa.DepthKnown {
			depth = fmt.Sprintf("depth in [%s, %s]", formatFloat(pa.Depth[0]), formatFloat(pa.Depth[1]))
		}
		curves := make([]string, len(pa.Curves))
		for k, c := range pa.Curves {
			curves[k] = strconv.Itoa(len(c))
		}
		b = fmt.Appendf(b, "    patch %d: %s %s, point %s, normal %s, %s, manifold %s, %d %s",
			j, plural(len(pa.Contacts), "contact", "contacts"), strings.Join(ids, " "), textVec(pa.Point), textVec(pa.Normal),
			depth, textList(pa.Manifold), len(pa.Curves), plural(len(pa.Curves), "curve", "curves"))
		if len(curves) > 0 {
			b = fmt.Appendf(b, " (%s points)", strings.Join(curves, ", "))
		}
		b = append(b, '\n')
	}
	return b
}

// textPoints formats ps as "point (x y z)", "segment (..) (..)" or
// "polygon (..) (..) (..) ...", by their number.
func textPoints(ps []geom.Vec3) string {
	var s strings.Builder
	switch len(ps) {
	case 0:
		return "no points"
	case 1:
		s.WriteString("point")
	case 2:
		s.WriteString("segment")
	default:
		s.WriteString("polygon")
	}
	for _, p := range ps {
		s.WriteByte(' ')
		s.WriteString(textVec(p))
	}
	return s.String()
}

// textList formats ps as "(x y z) (x y z) ..." ("none" when empty).
func textList(ps []geom.Vec3) string {
	if len(ps) == 0 {
		return "none"
	}
	s := make([]string, len(ps))
	for k, p := range ps {
		s[k] = textVec(p)
	}
	return strings.Join(s, " ")
}
