// body.go: reading a request body into a kubesim object (the decoding half of
// k8s.io/apiserver/pkg/endpoints/handlers: limit the size, pick the serializer by Content-Type (JSON,
// YAML, or protobuf via protobuf.go), then decode with the field validation the request asked for).
//
// fieldValidation decides what an unknown or duplicated field does (KEP-2885):
//
//	Strict   the request fails, 400 `Deployment in version "v1" cannot be handled as a Deployment:
//	         strict decoding error: unknown field "spec.replica"`
//	Warn     the field is dropped and the answer carries a Warning header (the server's default)
//	Ignore   the field is dropped silently
//
// kubectl sends Strict unless told --validate=false.
package httpfront

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"kubesim/api"
	apierrors "kubesim/api/errors"

	"encoding/json"

	"sigs.k8s.io/yaml"
)

// bodyObject is the empty object a request's body decodes into: the resource's own kind, or the
// subresource's (Scale, Binding, Eviction).
func bodyObject(rt route) api.Object {
	switch rt.subresource {
	case "scale":
		return &api.Scale{TypeMeta: api.TypeMeta{APIVersion: "autoscaling/v1", Kind: "Scale"}}
	case "binding":
		return &api.Binding{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Binding"}}
	case "eviction":
		return &api.Eviction{TypeMeta: api.TypeMeta{APIVersion: "policy/v1", Kind: "Eviction"}}
	}
	return rt.res.NewObject()
}

// readBody reads and decodes the body, or writes the error and returns nil.
func (h *Handler) readBody(w http.ResponseWriter, r *http.Request, rt route) api.Object {
	data, err := io.ReadAll(r.Body)
	if err != nil {
		writeError(w, bodyReadError(err))
		return nil
	}
	mt, err := checkContentType(r.Header.Get("Content-Type"))
	if err != nil {
		writeError(w, err)
		return nil
	}
	obj := bodyObject(rt)
	if mt == protobufMediaType {
		if data, err = protobufToJSON(data); err != nil {
			tm := obj.GetTypeMeta()
			writeError(w, apierrors.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", tm.Kind, versionOf(tm.APIVersion), tm.Kind, err)))
			return nil
		}
	}
	warnings, err := decodeBody(data, obj, r.URL.Query().Get("fieldValidation"))
	if err != nil {
		writeError(w, err)
		return nil
	}
	warn(w, warnings)
	return obj
}

// bodyReadError is 413 for a body over the limit, else 400.
func bodyReadError(err error) error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return tooLarge()
	}
	return apierrors.NewBadRequest("error reading the request body: " + err.Error())
}

// checkContentType accepts JSON, YAML and protobuf bodies and returns the media type.
func checkContentType(ct string) (string, error) {
	if ct == "" {
		return "application/json", nil
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err == nil {
		switch mt {
		case "application/json", "application/yaml", protobufMediaType, "*/*":
			return mt, nil
		}
	}
	return "", unsupported(fmt.Sprintf("the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, %s", protobufMediaType))
}

// decodeBody decodes data (JSON or YAML) into obj under the fieldValidation directive, returning the
// warnings Warn produces.
func decodeBody(data []byte, obj api.Object, directive string) ([]string, error) {
	tm := *obj.GetTypeMeta()
	cannot := func(err error) error {
		return apierrors.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", tm.Kind, versionOf(tm.APIVersion), tm.Kind, err))
	}
	switch directive {
	case "", "Warn", "Strict", "Ignore":
	default:
		return nil, apierrors.NewBadRequest(fmt.Sprintf("fieldValidation must be one of Ignore, Warn or Strict, not %q", directive))
	}
	err := api.DecodeInto(data, obj)
	var strict *api.StrictDecodingError
	switch {
	case err == nil:
		return nil, nil
	case !errors.As(err, &strict):
		return nil, cannot(err)
	case directive == "Strict":
		return nil, cannot(err)
	}
	// Warn or Ignore: decode again, keeping what the type has and dropping the rest.
	j, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, cannot(err)
	}
	if err := json.Unmarshal(j, obj); err != nil {
		return nil, cannot(err)
	}
	*obj.GetTypeMeta() = tm
	if directive == "Ignore" {
		return nil, nil
	}
	return strict.Errors, nil
}

func versionOf(apiVersion string) string {
	if _, v, ok := strings.Cut(apiVersion, "/"); ok {
		return v
	}
	return apiVersion
}

// warn adds one Warning header per message, in RFC 7234's form that kubectl prints as
// `Warning: unknown field "spec.replica"`.
func warn(w http.ResponseWriter, msgs []string) {
	for _, m := range msgs {
		w.Header().Add("Warning", "299 - "+strconv.Quote(m))
	}
}
