module example.com/groupmod

go 1.25
