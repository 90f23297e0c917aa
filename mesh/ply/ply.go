package ply
