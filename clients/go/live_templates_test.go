// Live tests of templates: made with variables, found by alias, listed, updated, rendered with a fallback, validated,
// duplicated, published, and sent from with the variables filled in.
package mailroom

import (
	"strings"
	"testing"
)

func TestLiveTemplatesSendWithVariables(t *testing.T) {
	env := live(t)
	client := env.client()
	alias := unique("order-shipped")
	created, err := client.Templates.Create(&CreateTemplateRequest{
		Name:    "Order shipped " + alias,
		Alias:   alias,
		Subject: "Order {{order}} shipped",
		Html:    "<p>Hi {{name}}, order {{order}} is on its way.</p>",
		Variables: []CreateTemplateOptionsVariable{
			{Key: "order", Type: "string"},
			{Key: "name", Type: "string", FallbackValue: "there"},
		},
	})
	if err != nil || created.Id == "" {
		t.Fatalf("create: %+v (%v)", created, err)
	}
	t.Cleanup(func() { _, _ = client.Templates.Remove(created.Id) })

	byAlias, err := client.Templates.Get(alias)
	if err != nil || byAlias.Id != created.Id || byAlias.Status != "draft" || len(byAlias.Variables) != 2 {
		t.Fatalf("get by alias: %+v (%v)", byAlias, err)
	}
	listed, err := client.Templates.List(&ListOptions{Limit: 100})
	if err != nil || listed.Object != "list" || len(listed.Data) == 0 {
		t.Fatalf("list: %+v (%v)", listed, err)
	}
	if _, err := client.Templates.Update(alias, &UpdateTemplateRequest{Subject: Value("Your order {{order}} shipped")}); err != nil {
		t.Fatalf("update: %v", err)
	}
	rendered, err := client.Templates.Render(alias, &RenderTemplateRequest{Variables: map[string]interface{}{"order": "A-1"}})
	if err != nil || rendered.Subject != "Your order A-1 shipped" || !strings.Contains(rendered.Html, "Hi there") {
		t.Fatalf("render: %+v (%v)", rendered, err)
	}
	validation, err := client.Templates.Validate(&ValidateTemplateRequest{Html: "<p>{{#if x}}never closed</p>"})
	if err != nil || validation.Valid || len(validation.Errors) == 0 || validation.Errors[0].Line != 1 {
		t.Fatalf("validate: %+v (%v)", validation, err)
	}
	duplicate, err := client.Templates.Duplicate(alias)
	if err != nil || duplicate.Id == "" || duplicate.Id == created.Id {
		t.Fatalf("duplicate: %+v (%v)", duplicate, err)
	}
	if removed, err := client.Templates.Remove(duplicate.Id); err != nil || !removed.Deleted {
		t.Fatalf("remove the copy: %+v (%v)", removed, err)
	}
	if _, err := client.Templates.Publish(alias); err != nil {
		t.Fatalf("publish: %v", err)
	}

	order := unique("A")
	sent, err := client.Emails.Send(&SendEmailRequest{From: env.from, To: []string{recipient()}, Template: &EmailTemplate{Id: alias, Variables: map[string]interface{}{"order": order, "name": "Ada"}}})
	if err != nil {
		t.Fatalf("send with the template: %v", err)
	}
	email, err := client.Emails.Get(sent.Id)
	if err != nil || !strings.Contains(email.Html, order) || !strings.Contains(email.Html, "Hi Ada") || email.TemplateId != created.Id {
		t.Fatalf("the email rendered from the template: %+v (%v)", email, err)
	}
}
