module failing

go 1.24
