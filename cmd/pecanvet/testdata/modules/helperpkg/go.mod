module example.com/helperpkg

go 1.22
