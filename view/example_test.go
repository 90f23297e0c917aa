package view_test

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"

	"github.com/collide3d/collide"
	"github.com/collide3d/collide/flight"
	"github.com/collide3d/collide/geom"
	"github.com/collide3d/collide/mesh/gen"
	"github.com/collide3d/collide/view"
)

// Record a flight of a ball past a box and serve it; a browser pointed at
// the server's address plays it. Here the page's description is read back:
// the ball touches the box's two walls on its way through (the box is a
// surface, so inside it the ball touches nothing).
func ExampleHandler() {
	box, _ := collide.Build(gen.Must(gen.Box(geom.AABB{Min: geom.V(-1, -1, -1), Max: geom.V(1, 1, 1)}, 2)), collide.BuildOptions{})
	ball, _ := collide.Build(gen.Must(gen.Icosphere(geom.Vec3{}, 0.5, 320)), collide.BuildOptions{})
	path := make([]geom.Pose, 50)
	for i := range path {
		path[i] = geom.Pose{R: geom.Identity3(), T: geom.V(-3+0.12*float64(i), 0, 0)}
	}
	rec, _, err := view.RecordFlight("ball past box", box, ball, &flight.Recorded{Poses: path},
		flight.Options{Steps: len(path), Query: collide.QueryOptions{All: true}})
	if err != nil {
		fmt.Println(err)
		return
	}
	h, err := view.Handler(rec, view.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	srv := httptest.NewServer(h) // or http.ListenAndServe("127.0.0.1:8357", h)
	defer srv.Close()

	resp, err := srv.Client().Get(srv.URL + "/recording.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	var info struct {
		Title string
		Steps int
		Pairs []int
	}
	json.NewDecoder(resp.Body).Decode(&info)
	touching := 0
	for _, n := range info.Pairs {
		if n > 0 {
			touching++
		}
	}
	fmt.Printf("%s: %d steps, %d in contact\n", info.Title, info.Steps, touching)
	// Output:
	// ball past box: 50 steps, 16 in contact
}

// The step a snapshot shows by default is the one with the most pairs in
// contact; the page draws its intersection curves and contact normals,
// computed from the library's contacts when the step is asked for
// (GET /step/N).
func ExampleRecording_ContactStep() {
	box, _ := collide.Build(gen.Must(gen.Box(geom.AABB{Min: geom.V(-1, -1, -1), Max: geom.V(1, 1, 1)}, 2)), collide.BuildOptions{})
	ball, _ := collide.Build(gen.Must(gen.Icosphere(geom.Vec3{}, 0.5, 320)), collide.BuildOptions{})
	path := make([]geom.Pose, 50)
	for i := range path {
		path[i] = geom.Pose{R: geom.Identity3(), T: geom.V(-3+0.12*float64(i), 0, 0)}
	}
	rec, _, err := view.RecordFlight("ball past box", box, ball, &flight.Recorded{Poses: path},
		flight.Options{Steps: len(path), Query: collide.QueryOptions{All: true}})
	if err != nil {
		fmt.Println(err)
		return
	}
	n := rec.ContactStep()
	h, err := view.Handler(rec, view.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	resp, err := srv.Client().Get(fmt.Sprintf("%s/step/%d", srv.URL, n))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	var step struct {
		Pairs   int
		Curves  []float64 // 6 numbers a segment
		Normals []float64 // 6 numbers a patch: a point and a unit normal
	}
	json.NewDecoder(resp.Body).Decode(&step)
	fmt.Printf("step %d: pairs %d, curve segments %d, patch normals %d\n", n, step.Pairs, len(step.Curves)/6, len(step.Normals)/6)
	// Output:
	// step 16: pairs 54, curve segments 50, patch normals 1
}
