module example.com/cgodemo

go 1.25
