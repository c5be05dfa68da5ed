module example.com/vend

go 1.22

require example.com/dep v1.0.0
