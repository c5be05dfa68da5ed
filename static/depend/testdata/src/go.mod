module dep

go 1.24
