module drivertest

go 1.24
