package source

import (
	"fmt"

	"github.com/collide3d/collide"
)

// Given reports whether the build option of a command-line flag was given
// explicitly: "bv", "rule", "split", "env-leaf", "leaf" or "compact". A
// nil Given gives none.
type Given func(flag string) bool

func (g Given) given(flag string) bool { return g != nil && g(flag) }

// Agree returns the *UsageError of a build option given explicitly (given;
// bo holds the values) that differs from the options the saved model s was
// built with. It returns nil for a mesh.
func (s *Source) Agree(bo collide.BuildOptions, given Given) error {
	if s.Saved == nil {
		return nil
	}
	if given.given("bv") {
		if err := s.AgreeBV(bo.BV); err != nil {
			return err
		}
	}
	o := s.Saved.Options()
	differ := func(flag string, v, saved any) error {
		return usagef("--%s %v: %s was saved with --%s %v (omit --%s, or rebuild it with 'collide build')", flag, v, s.Arg, flag, saved, flag)
	}
	switch {
	case given.given("rule") && bo.Rule != o.Rule:
		return differ("rule", bo.Rule, o.Rule)
	case given.given("split") && bo.Split != o.Split:
		return differ("split", bo.Split, o.Split)
	case given.given("env-leaf") && bo.Leaf != o.Leaf:
		return differ("env-leaf", bo.Leaf, o.Leaf)
	case given.given("leaf") && bo.FlyLeaf != o.FlyLeaf:
		return differ("leaf", bo.FlyLeaf, o.FlyLeaf)
	case given.given("compact") && bo.Compact != o.Compact:
		return differ("compact", bo.Compact, o.Compact)
	}
	return nil
}

// Inherit returns bo with the options of the saved model m in place of
// those not given explicitly, so that a mesh checked against a saved model
// is built like it.
func Inherit(bo collide.BuildOptions, m *collide.Model, given Given) collide.BuildOptions {
	if !given.given("bv") {
		bo.BV = m.BV()
	}
	o := m.Options()
	if !given.given("rule") {
		bo.Rule = o.Rule
	}
	if !given.given("split") {
		bo.Split = o.Split
	}
	if !given.given("env-leaf") {
		bo.Leaf = o.Leaf
	}
	if !given.given("leaf") {
		bo.FlyLeaf = o.FlyLeaf
	}
	bo.Float64 = o.Float64
	if !given.given("compact") {
		bo.Compact = o.Compact
	}
	return bo
}

// PairOptions configures LoadPair and BuildPair: how the two models of a
// query (ENV and FLY) are loaded and built, with the command line's
// semantics. The zero value loads with Load and builds with collide.Build.
type PairOptions struct {
	// Given tells the build options given explicitly (the others are
	// defaults, which a saved model's options replace); Agree uses
	// AgreeGiven instead when it is not nil (check --bv auto compares no
	// volume).
	Given, AgreeGiven Given
	// Load loads a model argument; nil: Load(arg, Options{}).
	Load func(arg string) (*Source, error)
	// Build builds the mesh of s; nil: collide.Build, its error
	// prefixed with s.Arg.
	Build func(s *Source, bo collide.BuildOptions) (*collide.Model, error)
	// WithBV makes fly's companion of volume bv (collide.Model.WithBV),
	// for ENV of a volume that FLY's does not fly with (for example
	// showing progress); nil: fly.WithBV. Its error is prefixed with
	// flyArg. n is FLY's number of triangles.
	WithBV func(fly *collide.Model, bv collide.BV, envArg, flyArg string, n int) (*collide.Model, error)
}

// LoadPair loads ENV and FLY (once, when they are the same argument),
// checks that each has triangles and that saved models agree with the
// options given explicitly, and returns the build options of the meshes:
// bo with a saved model's options (ENV's first) where none is given.
func LoadPair(envArg, flyArg string, bo collide.BuildOptions, o PairOptions) (envSrc, flySrc *Source, _ collide.BuildOptions, err error) {
	load := o.Load
	if load == nil {
		load = func(arg string) (*Source, error) { return Load(arg, Options{}) }
	}
	if envSrc, err = load(envArg); err != nil {
		return nil, nil, bo, err
	}
	flySrc = envSrc
	if flyArg != envArg {
		if flySrc, err = load(flyArg); err != nil {
			return nil, nil, bo, err
		}
	}
	agree := o.Given
	if o.AgreeGiven != nil {
		agree = o.AgreeGiven
	}
	for _, s := range []*Source{envSrc, flySrc} {
		if err := s.HasTriangles(); err != nil {
			return nil, nil, bo, err
		}
		if err := s.Agree(bo, agree); err != nil {
			return nil, nil, bo, err
		}
	}
	for _, s := range []*Source{flySrc, envSrc} { // ENV's options win
		if s.Saved != nil {
			bo = Inherit(bo, s.Saved, o.Given)
		}
	}
	return envSrc, flySrc, bo, nil
}

// BuildPair returns the models of envSrc and flySrc (LoadPair): saved
// models as they are, meshes built with bo. When their bounding volumes do
// not fly together, FLY's companion of ENV's volume is built
// (collide.Model.WithBV).
func BuildPair(envSrc, flySrc *Source, bo collide.BuildOptions, o PairOptions) (envModel, flyModel *collide.Model, err error) {
	build := func(s *Source) (*collide.Model, error) {
		if s.Saved != nil {
			return s.Saved, nil
		}
		if o.Build != nil {
			return o.Build(s, bo)
		}
		m, err := collide.Build(s.Mesh, bo)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Arg, err)
		}
		return m, nil
	}
	if envModel, err = build(envSrc); err != nil {
		return nil, nil, err
	}
	if flySrc == envSrc {
		return envModel, envModel, nil
	}
	if flyModel, err = build(flySrc); err != nil {
		return nil, nil, err
	}
	if !envModel.BV().Compatible(flyModel.BV()) {
		fly := flyModel
		if o.WithBV != nil {
			flyModel, err = o.WithBV(fly, envModel.BV(), envSrc.Arg, flySrc.Arg, len(flySrc.Mesh.Tris))
		} else {
			flyModel, err = fly.WithBV(envModel.BV())
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", flySrc.Arg, err)
		}
	}
	return envModel, flyModel, nil
}
