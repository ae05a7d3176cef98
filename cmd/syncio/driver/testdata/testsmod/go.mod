module example.com/testsmod

go 1.26
