// Live tests of the AI endpoints on a server without a model: the status says so (and what to configure, as the
// writer's 503 does), and subject scoring, which needs no model.
package mailroom

import (
	"strings"
	"testing"
)

func TestLiveAIStatus(t *testing.T) {
	env := live(t)
	status, err := env.client().AI.Status()
	if err != nil {
		t.Fatalf("AI status: %v", err)
	}
	// The test server has no model: the status says so and what to configure, in the words of Write's 503.
	if status.Object != "ai" || status.ModelConfigured || status.Model != "" || !strings.Contains(status.Message, "[ai] base_url") {
		t.Fatalf("status %+v", status)
	}
	_, err = env.client().AI.Write(&WriteRequest{Brief: "Tell {{first_name}} their trial ends in 3 days"})
	if refused := apiError(t, err, NameServiceUnavailable, 503); refused.Message != status.Message {
		t.Fatalf("write without a model: %q, the status said %q", refused.Message, status.Message)
	}
}

func TestLiveAISubjectScoring(t *testing.T) {
	env := live(t)
	analysis, err := env.client().AI.Subject(&SubjectRequest{Subject: "FREE!!! Open now", Html: "<p>Your March invoice is ready.</p>"})
	if err != nil {
		t.Fatalf("score a subject: %v", err)
	}
	if analysis.Score < 0 || analysis.Score > 100 || len(analysis.Findings) == 0 || analysis.Findings[0].Rule == "" {
		t.Fatalf("analysis %+v", analysis)
	}
	better, err := env.client().AI.Subject(&SubjectRequest{Subject: "Your March invoice is ready"})
	if err != nil || better.Score <= analysis.Score {
		t.Fatalf("a plain subject scores higher than a shouting one: %+v (%v)", better, err)
	}
}
