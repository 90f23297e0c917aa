package bvh

import (
	"encoding/binary"
	"math"
)

// This file holds what the save layouts of every kind share: numbers and
// records written and read in chunks, the triangle order and the checks of
// a node's reference. Each kind's layout is in its own file (kind_*.go;
// vtree_save.go for the moved-volume kinds).

// putFloats stores xs at p, little-endian, and returns the rest of p.
func putFloats(p []byte, xs ...float64) []byte {
	for _, x := range xs {
		binary.LittleEndian.PutUint64(p, math.Float64bits(x))
		p = p[8:]
	}
	return p
}

// getFloats loads len(xs) float64s from p into xs and returns the rest of
// p; nan reports whether one was NaN.
func getFloats(p []byte, xs ...*float64) (rest []byte, nan bool) {
	for _, x := range xs {
		*x = math.Float64frombits(binary.LittleEndian.Uint64(p))
		nan = nan || *x != *x
		p = p[8:]
	}
	return p, nan
}

// encodeRecords writes n records of size bytes, record i filled by put.
func encodeRecords(e *encoder, n int, size int64, put func(i int, p []byte)) {
	per := int(ioChunk / size)
	for lo := 0; lo < n && e.err == nil; lo += per {
		hi := min(lo+per, n)
		b := e.grab(int(size) * (hi - lo))
		for i := lo; i < hi; i++ {
			put(i, b[int(size)*(i-lo):int(size)*(i-lo+1)])
		}
	}
}

// decodeRecords reads n records of size bytes, what the file calls them,
// passing record i to get, in chunks.
func decodeRecords(d *decoder, n int, size int64, what string, get func(i int, p []byte)) error {
	per := int(ioChunk / size)
	for lo := 0; lo < n; lo += per {
		hi := min(lo+per, n)
		b, err := d.next(int(size)*(hi-lo), what)
		if err != nil {
			return err
		}
		for i := lo; i < hi; i++ {
			get(i, b[int(size)*(i-lo):int(size)*(i-lo+1)])
		}
	}
	return nil
}

// readOrder reads the triangle order of h.no entries, checking each
// against the triangle count.
func readOrder(d *decoder, h *header) ([]int32, error) {
	if h.no == 0 {
		return nil, nil
	}
	return readRaw(d, h.no, 4, 4, "triangle order", func(order []int32, i0 int) {
		nt := int32(h.nt)
		for j, v := range order {
			if v < 0 {
				v = ^v
			}
			if v >= nt {
				i := i0 + j
				d.badf(h.oAt+4*int64(i), "order entry %d: triangle %d out of range [0, %d)", i, v, nt)
				return
			}
		}
	})
}

// checkRef records a reference of node i out of range: a right child
// beyond the array, or a leaf's first entry at or beyond leafRange.
func (d *decoder) checkRef(h *header, i int, ref int32, leafRange int64) {
	at := h.nAt + int64(i+1)*h.nodeSize - 4
	if h.o.Kind == BoxTree {
		at -= 4
	}
	d.checkRefAt(at, h.nn, i, ref, leafRange)
}

// checkRefAt is checkRef for a ref at offset at, in an array of nn nodes.
func (d *decoder) checkRefAt(at int64, nn, i int, ref int32, leafRange int64) {
	r, n := int64(ref), int64(nn)
	switch {
	case r >= 0 && (r < 2 || int64(i)+r >= n):
		d.badf(at, "node %d: right child offset %d out of range [2, %d)", i, r, n-int64(i))
	case r < 0 && ^r >= leafRange:
		d.badf(at, "node %d: leaf reference %d out of range [0, %d)", i, ^r, leafRange)
	}
}
