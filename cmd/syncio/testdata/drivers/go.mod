module example.com/drivers

go 1.26
