module github.com/pecanvet/pecanvet

go 1.24
