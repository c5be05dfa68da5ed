module capped

go 1.24
