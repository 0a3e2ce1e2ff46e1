package httpfront_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"kubesim/apiserver"
	"kubesim/apiserver/httpfront"
	"kubesim/clock"
	"kubesim/store"
)

// The front turns HTTP into the apiserver's requests and its errors into Status documents: this body
// is what kubectl prints as `Error from server (NotFound): pods "nope" not found`.
func Example() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := store.Open(ctx, store.Config{})
	if err != nil {
		panic(err)
	}
	defer st.Close()
	srv := apiserver.New(apiserver.Config{Store: st, Clock: clock.NewReal(0), Seed: 1})
	if err := srv.Start(ctx); err != nil {
		panic(err)
	}
	srv.AddCredential(apiserver.Credential{Token: "admin-token", User: apiserver.User{Name: "admin", Groups: []string{apiserver.GroupMasters}}})
	hs := httptest.NewServer(httpfront.New(httpfront.Config{Server: srv, Clock: clock.NewReal(0)}))
	defer hs.Close()

	req, _ := http.NewRequest("GET", hs.URL+"/api/v1/namespaces/default/pods/nope", nil)
	req.Header.Set("Authorization", "Bearer admin-token")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.Status)
	fmt.Print(string(body))
	// Output:
	// 404 Not Found
	// {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \"nope\" not found","reason":"NotFound","details":{"name":"nope","kind":"pods"},"code":404}
}
