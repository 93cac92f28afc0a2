"""The AI endpoints against the real server: subject scoring (no model needed), the status saying whether a model is
configured, and the writer, which needs one."""

from __future__ import annotations

import unittest

import mailroom
from tests.support import client, needs_server


@needs_server
class AiTest(unittest.TestCase):
    def test_subject_scoring_works_offline(self) -> None:
        ai = client().ai
        shouty = ai.subject({"subject": "FREE!!! OPEN NOW"})
        calm = ai.subject({"subject": "Your March invoice is ready", "html": "<p>Invoice attached.</p>"})
        self.assertTrue(0 <= shouty["score"] <= 100)
        self.assertLess(shouty["score"], calm["score"])
        self.assertTrue(all({"rule", "severity", "message"} <= set(f) for f in shouty["findings"]))

    def test_status_says_whether_a_model_is_configured(self) -> None:
        status = client().ai.status()
        self.assertEqual(status["object"], "ai")
        if status["model_configured"]:
            self.assertTrue(status["model"])
            self.assertIsNone(status["message"])
        else:
            self.assertIsNone(status["model"])
            self.assertIn("[ai] base_url", status["message"] or "")

    def test_writer_needs_a_model(self) -> None:
        try:
            draft = client().ai.write({"brief": "Tell {{first_name}} their trial ends in 3 days"})
        except mailroom.ServiceUnavailableError as error:
            self.assertEqual(error.status_code, 503)
            self.assertIn("model", error.message.lower())
        else:
            self.assertTrue(draft["subject"])


if __name__ == "__main__":
    unittest.main()
