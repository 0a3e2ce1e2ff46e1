package api

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A rolling update of 3 replicas with the default 25%/25%: maxSurge rounds up to 1 so the rollout can
// start, maxUnavailable rounds down to 0 so no ready pod is taken away first.
func TestScaledValueRoundsSurgeUpAndUnavailableDown(t *testing.T) {
	quarter := FromString("25%")

	surge, err := quarter.ScaledValue(3, true)
	require.NoError(t, err)
	assert.Equal(t, 1, surge)

	unavailable, err := quarter.ScaledValue(3, false)
	require.NoError(t, err)
	assert.Equal(t, 0, unavailable)

	exact, err := quarter.ScaledValue(8, false)
	require.NoError(t, err)
	assert.Equal(t, 2, exact)
}

func TestScaledValueOfANumberIgnoresTheTotal(t *testing.T) {
	v, err := FromInt32(2).ScaledValue(100, true)
	require.NoError(t, err)
	assert.Equal(t, 2, v)
}

func TestScaledValueRejectsANonPercentageString(t *testing.T) {
	_, err := FromString("http").ScaledValue(3, true)
	assert.Error(t, err)
	_, err = FromString("x%").ScaledValue(3, true)
	assert.Error(t, err)
}

func TestIntOrStringJSONBothWays(t *testing.T) {
	for _, tc := range []struct {
		json string
		v    IntOrString
	}{{`8080`, FromInt32(8080)}, {`"http"`, FromString("http")}, {`"25%"`, FromString("25%")}} {
		var got IntOrString
		require.NoError(t, json.Unmarshal([]byte(tc.json), &got))
		assert.Equal(t, tc.v, got)
		out, err := json.Marshal(tc.v)
		require.NoError(t, err)
		assert.JSONEq(t, tc.json, string(out))
	}
	var bad IntOrString
	assert.Error(t, json.Unmarshal([]byte(`{}`), &bad))
}

func TestParseIntOrString(t *testing.T) {
	assert.Equal(t, FromInt32(80), Parse("80"))
	assert.Equal(t, FromString("80%"), Parse("80%"))
	assert.Equal(t, "80", FromInt32(80).String())
	assert.Equal(t, 443, FromString("443").IntValue())
}

// A malformed percentage fails with GetScaledValueFromIntOrPercent's words.
func TestScaledValueOfAMalformedPercentageInKubernetesWords(t *testing.T) {
	_, err := FromString("1.5%").ScaledValue(10, true)
	assert.EqualError(t, err, `invalid value for IntOrString: invalid value "1.5%": strconv.Atoi: parsing "1.5": invalid syntax`)
}
