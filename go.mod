module github.com/collide3d/collide

go 1.26
