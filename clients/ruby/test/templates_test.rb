# frozen_string_literal: true

# Templates against the real server: create, publish, send with template variables and find them in the
# delivered html; get by alias, update, render, validate, duplicate, list and remove.
require "minitest/autorun"
require "test_helper"

class TemplatesTest < Minitest::Test
  include MailroomTestHelper

  def test_publish_then_send_with_variables
    mailroom = client
    name = unique("ruby-template")
    order = unique("A")
    template = mailroom.templates.create(
      name: name, alias: name, from: env("MAILROOM_FROM"), subject: "Order {{order}} shipped",
      html: "<p>Hi {{name}}, order {{order}} is on its way.</p>",
      variables: [{ key: "order", type: "string" }, { key: "name", type: "string", fallback_value: "there" }]
    )
    assert_match(/\A[0-9a-f-]{36}\z/, template[:id])
    mailroom.templates.publish(template[:id])

    sent = mailroom.emails.send(to: recipient, template: { id: template[:id], variables: { order: order } })
    email = mailroom.emails.get(sent[:id])
    assert_includes email[:html], order
    assert_includes email[:html], "Hi there"
    assert_equal "Order #{order} shipped", email[:subject]
    assert_equal template[:id], email[:template_id]

    by_alias = mailroom.emails.send(to: recipient, template: { id: name, variables: { order: "by-alias", name: "Ada" } })
    assert_includes mailroom.emails.get(by_alias[:id])[:html], "Hi Ada"

    error = assert_raises(Mailroom::ValidationError) { mailroom.emails.send(to: recipient, template: { id: name }) }
    assert(error.details.any? { |d| d[:path].include?("order") }, error.details.inspect)
  ensure
    mailroom&.templates&.remove(template[:id]) if template
  end

  def test_round_trip
    mailroom = client
    name = unique("ruby-template")
    template = mailroom.templates.create(name: name, alias: name, subject: "Hello {{who}}", html: "<p>Hello {{who}}</p>",
                                         variables: [{ key: "who", type: "string", fallback_value: "you" }])
    assert_equal template[:id], mailroom.templates.get(name)[:id]
    assert_equal name, mailroom.templates.get(template[:id])[:name]

    mailroom.templates.update(template[:id], html: "<p>Bonjour {{who}}</p>")
    rendered = mailroom.templates.render(template[:id], variables: { who: "Ada" })
    assert_includes rendered[:html], "Bonjour Ada"
    assert_equal "Hello Ada", rendered[:subject]
    assert_kind_of String, rendered[:text]

    assert_equal true, mailroom.templates.validate(html: "<p>{{ok}}</p>")[:valid]
    invalid = mailroom.templates.validate(html: "<p>{{#if}}</p>")
    assert_equal false, invalid[:valid]
    refute_empty invalid[:errors]
    assert(invalid[:errors].all? { |e| e.key?(:line) && e.key?(:column) })

    copy = mailroom.templates.duplicate(template[:id])
    refute_equal template[:id], copy[:id]

    listed = mailroom.templates.list(limit: 100)
    assert_equal "list", listed[:object]
    assert_includes [true, false], listed[:has_more]
    assert_includes listed[:data].map { |t| t[:id] }, template[:id]

    [copy[:id], template[:id]].each do |id|
      removed = mailroom.templates.remove(id)
      assert_equal({ object: "template", id: id, deleted: true }, removed.slice(:object, :id, :deleted))
    end
    assert_raises(Mailroom::NotFoundError) { mailroom.templates.get(template[:id]) }
  end
end
