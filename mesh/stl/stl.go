package stl
