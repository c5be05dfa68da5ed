module reachmod

go 1.22
