# frozen_string_literal: true

# The AI endpoints: the status says whether a model is configured; subject scoring works without one; writing
# needs one, which the test server has not.
require "minitest/autorun"
require "test_helper"

class AITest < Minitest::Test
  include MailroomTestHelper

  def test_subject_scoring_works_offline
    result = client.ai.subject(subject: "FREE!!! Open now", html: "<p>Your March invoice is ready.</p>")
    assert_kind_of Integer, result[:score]
    assert_includes 0..100, result[:score]
    refute_empty result[:findings]
    assert(result[:findings].all? { |f| f[:rule] && f[:severity] && f[:message] })
    assert_kind_of Array, result[:suggestions]
  end

  def test_status_says_no_model_is_configured_and_what_to_configure
    status = client.ai.status
    assert_equal "ai", status[:object]
    assert_equal false, status[:model_configured]
    assert_nil status[:model]
    assert_includes status[:message], "[ai] base_url"
    error = assert_raises(Mailroom::ServiceUnavailableError) { client.ai.write(brief: "Tell {{first_name}} hello") }
    assert_equal status[:message], error.message
  end

  def test_writing_without_a_model_is_service_unavailable
    error = assert_raises(Mailroom::ServiceUnavailableError) { client.ai.write(brief: "Tell {{first_name}} hello") }
    assert_equal 503, error.status_code
    assert_equal "service_unavailable", error.name
  end
end
