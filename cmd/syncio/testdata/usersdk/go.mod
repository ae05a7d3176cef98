module example.com/usersdk

go 1.26
