module example.com/testsheadmod

go 1.26
