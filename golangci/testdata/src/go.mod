module plugintest

go 1.24
