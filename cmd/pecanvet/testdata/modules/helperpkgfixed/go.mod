module example.com/helperpkgfixed

go 1.22
