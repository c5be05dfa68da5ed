module example.com/go116

go 1.16

require example.com/dep v0.0.0

replace example.com/dep => ./dep
