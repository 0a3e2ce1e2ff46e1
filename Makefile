# kubesim: the usual entry points. `make run` plays the first scenario, `make test` runs what CI runs.
.PHONY: run test bench vet fmt

run:
	go run ./cmd/kubesim run create-deployment

test:
	go test -race ./...

bench:
	go test -run '^$$' -bench . -benchtime 2x ./apiserver/ ./store/

vet:
	gofmt -l . && go vet ./...

fmt:
	gofmt -w .
