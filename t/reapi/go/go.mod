module reapiclient

go 1.19
