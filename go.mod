module github.com/tableref/tableref

go 1.26

require (
	github.com/go-audio/audio v1.0.0
	github.com/go-audio/wav v1.1.0
)

require (
	github.com/go-audio/riff v1.0.0 // indirect
	github.com/gordonklaus/portaudio v0.0.0-20250206071425-98a94950218b // indirect
	github.com/stretchr/testify v1.12.1 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	gonum.org/v1/gonum v0.17.0 // indirect
)
