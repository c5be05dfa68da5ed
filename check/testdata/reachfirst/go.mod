module reachfirst

go 1.22
