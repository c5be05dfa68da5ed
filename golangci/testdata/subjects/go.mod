module subjects

go 1.24
