module example.com/brokenleaf

go 1.25
