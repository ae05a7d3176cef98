module example.com/roots

go 1.26
