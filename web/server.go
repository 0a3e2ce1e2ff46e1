// server.go: the page's server. Everything the page shows is an event in one ordered history (the
// story's lines, the state at each pause, the answers to commands); every page that opens /events gets
// the history from its start, then each event as it is published, so a reload shows the same page.
//
//	New(title)            a server for a run with this title
//	Server.Handler()      the page (/), its files, /events (server-sent events), /command (POST)
//	Server.Story()        the writer the run's text story goes to
//	Server.Show(State)    the run's state at a pause: the learner's to take (buttons on), or in passing
//	Server.Answer(text)   the answer to a command
//	Server.End(verdict)   the run is over
//	Server.Commands()     the commands the page sends, one line each (the prompt's language)
//	Server.Close()        end every event stream (before http.Server.Shutdown, which waits for them)
package web

import (
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strings"
	"sync"
)

//go:embed static
var static embed.FS

// State is what the page shows at a pause.
type State struct {
	// Running is set for a pause the run goes through without asking (a next N, section, continue
	// or until on its way): the buttons stay off.
	Running     bool     `json:"running,omitempty"`
	Why         string   `json:"why,omitempty"` // the breakpoint's "scheduler bind: ... is about to ..."
	ClusterTime string   `json:"clusterTime"`
	Revision    int64    `json:"revision"` // etcd's
	Tables      []Table  `json:"tables"`   // Deployments, ReplicaSets, Pods, Nodes
	Breakpoints []string `json:"breakpoints,omitempty"`
}

// Table is one kind of object as `kubectl get` shows it.
type Table struct {
	Kind string     `json:"kind"`
	Head []string   `json:"head"`
	Rows [][]string `json:"rows"`
}

// event is one entry of the history, as the page receives it.
type event struct {
	Type  string `json:"type"` // title, line, state, answer, end
	Text  string `json:"text,omitempty"`
	Line  *Line  `json:"line,omitempty"`
	State *State `json:"state,omitempty"`
}

// Server serves one run's page.
type Server struct {
	commands chan string
	story    io.Writer

	// mu guards history, changed and closed. changed is closed (and replaced) whenever history grows
	// or the server closes, waking every stream.
	mu      sync.Mutex
	history [][]byte // JSON events, in order
	changed chan struct{}
	closed  bool
}

// New returns a server for a run titled title (the scenario and its summary).
func New(title string) *Server {
	s := &Server{commands: make(chan string, 8), changed: make(chan struct{})}
	s.story = Story(func(l Line) { s.publish(event{Type: "line", Line: &l}) })
	s.publish(event{Type: "title", Text: title})
	return s
}

// Story is the writer the run's text story goes to (no colour, no wrapping).
func (s *Server) Story() io.Writer { return s.story }

// Show shows the run's state at a pause.
func (s *Server) Show(st State) { s.publish(event{Type: "state", State: &st}) }

// Answer shows a command's answer.
func (s *Server) Answer(text string) { s.publish(event{Type: "answer", Text: text}) }

// End says the run is over; verdict is its last word.
func (s *Server) End(verdict string) { s.publish(event{Type: "end", Text: verdict}) }

// Commands are the lines the page sends: next, section, continue, until COND, or any command of the
// prompt.
func (s *Server) Commands() <-chan string { return s.commands }

// Close ends every event stream; the page keeps what it shows.
func (s *Server) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.closed = true
		close(s.changed)
	}
}

func (s *Server) publish(e event) {
	b, err := json.Marshal(e)
	if err != nil {
		panic(err) // the event types are ours: they always marshal
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.history = append(s.history, b)
	if !s.closed {
		close(s.changed)
		s.changed = make(chan struct{})
	}
}

// Handler serves the page, its files, the event stream and the commands.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	files, err := fs.Sub(static, "static")
	if err != nil {
		panic(err) // the embedded directory is there at build time
	}
	mux.Handle("GET /", http.FileServerFS(files))
	mux.HandleFunc("GET /events", s.events)
	mux.HandleFunc("POST /command", s.command)
	return mux
}

// events streams the history, then each new event, as server-sent events.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	sent := 0
	for {
		s.mu.Lock()
		pending, changed, closed := s.history[sent:], s.changed, s.closed
		s.mu.Unlock()
		for _, b := range pending {
			fmt.Fprintf(w, "data: %s\n\n", b)
		}
		sent += len(pending)
		flusher.Flush()
		if closed {
			return
		}
		select {
		case <-changed:
		case <-r.Context().Done():
			return
		}
	}
}

// command takes one line from the page (the body, plain text) for the run.
func (s *Server) command(w http.ResponseWriter, r *http.Request) {
	b, err := io.ReadAll(io.LimitReader(r.Body, 4096))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	line := strings.TrimSpace(string(b))
	select {
	case s.commands <- line:
		w.WriteHeader(http.StatusAccepted)
	default:
		http.Error(w, "the run has not taken the last commands yet", http.StatusServiceUnavailable)
	}
}
