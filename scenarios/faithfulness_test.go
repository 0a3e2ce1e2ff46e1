package scenarios_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// auditRow is one row of FAITHFULNESS.md's tables: an example of a message exactly as a scenario's story
// prints it, and the scenario whose golden story must contain it.
type auditRow struct {
	line     int
	example  string
	scenario string
}

// auditRows reads the table rows of FAITHFULNESS.md (| what | `example` | scenario | upstream | verdict |).
func auditRows(t *testing.T) []auditRow {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "FAITHFULNESS.md"))
	require.NoError(t, err)
	defer f.Close()
	var rows []auditRow
	scanner := bufio.NewScanner(f)
	for n := 1; scanner.Scan(); n++ {
		cells := strings.Split(scanner.Text(), " | ")
		if len(cells) != 5 || !strings.HasPrefix(cells[1], "`") {
			continue
		}
		rows = append(rows, auditRow{line: n, example: strings.Trim(cells[1], "`"), scenario: cells[2]})
	}
	require.NoError(t, scanner.Err())
	return rows
}

// joinedGolden is a golden story with its wrapped lines joined: the story wraps a long line onto
// continuation lines indented past the time and component columns.
func joinedGolden(t *testing.T, scenario string) string {
	t.Helper()
	text, err := os.ReadFile(filepath.Join("testdata", scenario+".txt"))
	require.NoError(t, err, "FAITHFULNESS.md names a scenario with no golden story")
	continuation := strings.Repeat(" ", 34)
	var b strings.Builder
	for _, line := range strings.Split(string(text), "\n") {
		if strings.HasPrefix(line, continuation) {
			b.WriteString(" " + strings.TrimSpace(line))
			continue
		}
		b.WriteString("\n" + line)
	}
	return b.String()
}

// TestFaithfulnessAuditIsProducedByTheStories holds FAITHFULNESS.md to the stories: every message the
// audit lists appears, word for word, in the golden story of the scenario its row names. A message
// changed in the code (and so in a golden) without its row fails here.
func TestFaithfulnessAuditIsProducedByTheStories(t *testing.T) {
	rows := auditRows(t)
	require.Greater(t, len(rows), 50, "FAITHFULNESS.md's tables should be read; the parser found too few rows")
	goldens := map[string]string{}
	for _, row := range rows {
		golden, ok := goldens[row.scenario]
		if !ok {
			golden = joinedGolden(t, row.scenario)
			goldens[row.scenario] = golden
		}
		assert.True(t, strings.Contains(golden, row.example),
			"FAITHFULNESS.md line %d: the story of %s does not say %q (update the row, or the message back)", row.line, row.scenario, row.example)
	}
}
