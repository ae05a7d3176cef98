module example.com/wired

go 1.26.0

require github.com/gin-gonic/gin v1.10.0

replace github.com/gin-gonic/gin => ./ginstub
