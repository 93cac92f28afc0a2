module github.com/mailroom/mailroom-go

go 1.19
