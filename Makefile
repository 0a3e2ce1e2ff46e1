# kubesim: the usual entry points. `make run` plays the flagship scenario, `make test` runs what CI
# runs, `make bench` measures against baselines taken in the same run.
.PHONY: run test bench vet fmt

run:
	go run ./cmd/kubesim run create-deployment

test:
	go test -race -timeout 25m ./...

bench:
	go run ./cmd/kubesim bench
	go test -run '^$$' -bench . -benchtime 1x ./scheduler/

vet:
	test -z "$$(gofmt -l .)" && go vet ./...

fmt:
	gofmt -w .
