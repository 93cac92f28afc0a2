"""Templates against the real server: made with variables, found by alias, listed, rendered (with a fallback, and
refused without a required variable), renamed, published, sent from, duplicated, validated and removed."""

from __future__ import annotations

import unittest

import mailroom
from tests.support import FROM, client, needs_server, recipient, unique


@needs_server
class TemplatesTest(unittest.TestCase):
    def test_template_round_trip_and_templated_send(self) -> None:
        c = client()
        alias = unique("py-template")
        created = c.templates.create(
            {
                "name": "Order shipped (Python suite)",
                "alias": alias,
                "from": FROM,
                "subject": "Order {{order}} shipped",
                "html": "<p>Hi {{name}}, order {{order}} is on its way.</p>",
                "variables": [
                    {"key": "order", "type": "string"},
                    {"key": "name", "type": "string", "fallback_value": "there"},
                ],
            }
        )
        template_id = created["id"]
        try:
            self.assertEqual(c.templates.get(alias)["id"], template_id)
            self.assertIn(template_id, [t["id"] for t in c.templates.list({"limit": 100})["data"]])

            preview = c.templates.render(template_id, {"order": "A-1"})
            self.assertEqual(preview["subject"], "Order A-1 shipped")
            self.assertIn("Hi there, order A-1", preview["html"])
            with self.assertRaises(mailroom.ValidationError):
                c.templates.render(template_id, {})

            c.templates.update({"id": template_id, "name": "Order shipped, renamed"})
            self.assertEqual(c.templates.get(template_id)["name"], "Order shipped, renamed")

            published = c.templates.publish(alias)
            self.assertEqual(published["id"], template_id)

            order = unique("order")
            sent = c.emails.send({"to": recipient(), "template": {"id": alias, "variables": {"order": order}}})  # type: ignore[typeddict-item]
            email = c.emails.get(sent["id"])
            self.assertIn(order, email["html"] or "")
            self.assertEqual(email["subject"], f"Order {order} shipped")
            self.assertEqual(email["template_id"], template_id)

            copy = c.templates.duplicate(template_id)
            self.assertNotEqual(copy["id"], template_id)
            self.assertEqual(c.templates.remove(copy["id"])["deleted"], True)

            checked = c.templates.validate({"html": "<p>{{#if open}}unclosed</p>"})
            self.assertFalse(checked["valid"])
            self.assertGreaterEqual(checked["errors"][0]["line"], 1)
            self.assertTrue(c.templates.validate({"html": "<p>{{name}}</p>"})["valid"])
        finally:
            removed = c.templates.remove(template_id)
        self.assertEqual((removed["id"], removed["deleted"]), (template_id, True))


if __name__ == "__main__":
    unittest.main()
