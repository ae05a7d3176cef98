module example.com/manyops

go 1.22
