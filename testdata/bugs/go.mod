module bugs

go 1.24
