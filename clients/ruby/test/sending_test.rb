# frozen_string_literal: true

# Sending pauses against the real server: a pause of the verified domain holds a message sent from it, listed as
# held and never attempted, until the resume sends it back to the queue and out; a pause of a domain of its own shows
# that the first pause stands; a second resume, an unknown provider, a domain that is not the organisation's and a key
# without the scope are refused.
#
# The other libraries' suites may pause and resume example.com on the same server at the same time. So every look at
# the pauses is filtered to the scope and name concerned, what a resume releases may include their recipients, a round
# that another suite's resume cut short is played again, and a pause this suite made is always resumed.
require "minitest/autorun"
require "test_helper"

class SendingTest < Minitest::Test
  include MailroomTestHelper

  DOMAIN = "example.com"
  ROUNDS = 3

  def domain_pause(state, name = DOMAIN)
    state[:pauses].find { |p| p[:scope] == "domain" && p[:name] == name }
  end

  # Resumes a pause this suite may have left; another suite may have resumed it first.
  def resume_if_paused(mailroom, name = DOMAIN)
    mailroom.sending.resume(scope: "domain", name: name)
  rescue Mailroom::NotFoundError
    nil
  end

  # The held delivery of a message, waiting up to ~5 s for the worker (it polls every 200 ms) to hold it.
  def held_delivery(mailroom, email_id, timeout: 5)
    deadline = monotonic + timeout
    loop do
      held = mailroom.deliveries.list(email_id: email_id, status: "held")[:data].first
      return held if held || monotonic > deadline

      sleep 0.1
    end
  end

  # Pause example.com, see it listed, send from it, see the recipient held, resume. Returns what was seen, or nil
  # when another suite's resume came in between (the pause gone before we saw the recipient held, or before our own
  # resume): then the round is played again.
  def held_round(mailroom, reason)
    paused = true
    state = mailroom.sending.pause(scope: "domain", name: DOMAIN, reason: reason)
    assert_equal "sending", state[:object]
    assert_kind_of Array, state[:pauses]
    listed = domain_pause(mailroom.sending.get)
    return paused = nil unless domain_pause(state) && listed

    assert_equal "domain", listed[:scope]
    assert_kind_of String, listed[:paused_at]
    assert_kind_of String, listed[:paused_by]
    # Its reason is ours unless another suite paused example.com first (the first pause stands): the next test checks
    # reasons on a domain no other suite pauses.

    to = recipient("held")
    sent = mailroom.emails.send(email_params(to: to))
    held = held_delivery(mailroom, sent[:id])
    unless held
      # Another suite resumed (and maybe paused again) while we waited: our recipient went out. Anything else is a bug.
      return paused = nil if domain_pause(mailroom.sending.get)&.dig(:paused_at) != listed[:paused_at]

      flunk "the recipient of #{sent[:id]} was not held while #{DOMAIN} was paused: " \
            "#{mailroom.emails.get(sent[:id])[:recipients].inspect}"
    end

    started = Time.now.utc.floor(3)
    resumed = begin
      mailroom.sending.resume(scope: "domain", name: DOMAIN)
    rescue Mailroom::NotFoundError
      return paused = nil # another suite resumed it: it released our recipient
    end
    paused = false
    { email_id: sent[:id], recipient: to, held: held, resumed: resumed, started: started }
  ensure
    resume_if_paused(mailroom) if paused
  end

  def test_a_domain_pause_holds_mail_until_it_is_resumed
    mailroom = client
    reason = unique("ruby pause")
    round = nil
    ROUNDS.times do
      round = held_round(mailroom, reason)
      break if round
    end
    refute_nil round, "another suite resumed #{DOMAIN} during each of #{ROUNDS} rounds"

    held = round[:held]
    assert_equal "delivery", held[:object]
    assert_equal round[:email_id], held[:email_id]
    assert_equal "held", held[:status]
    assert_equal 0, held[:attempts]
    assert_equal round[:recipient], held[:recipient]
    assert_match(/paused/, held[:last_response].to_s)

    resumed = round[:resumed]
    assert_equal "sending", resumed[:object]
    assert_kind_of Array, resumed[:pauses]
    # Ours at least; other suites' held recipients may have gone back with it.
    assert_kind_of Integer, resumed[:released]
    assert_operator resumed[:released], :>=, 1
    # The pause is gone: one still listed can only be another suite's, made since.
    [resumed, mailroom.sending.get].each do |state|
      left = domain_pause(state)
      assert(left.nil? || Time.iso8601(left[:paused_at]) >= round[:started], "#{DOMAIN} still paused: #{left.inspect}")
    end

    # Back in the queue, the recipient goes out (after any pause another suite makes meanwhile).
    eventually("the held message reaching status sent", timeout: 30) do
      mailroom.emails.get(round[:email_id])[:status] == "sent"
    end
    assert_empty mailroom.deliveries.list(email_id: round[:email_id])[:data]

    # Resuming what is not paused is refused. Wait out a pause another suite made meanwhile; if one comes between the
    # look and the resume, that resume ends it (as the other suites' do ours), and we look again.
    error = eventually("a second resume to be refused", timeout: 30) do
      next nil if domain_pause(mailroom.sending.get)

      mailroom.sending.resume(scope: "domain", name: DOMAIN)
      nil
    rescue Mailroom::NotFoundError => e
      e
    end
    assert_equal 404, error.status_code
    assert_equal "not_found", error.name
  end

  # A domain of this suite's own, which no other suite pauses: the pause round-trips exactly.
  def test_the_first_pause_stands_until_it_is_resumed
    mailroom = client
    domain = mailroom.domains.create(name: "#{unique('ruby-pause')}.example.org")
    name = domain[:name]
    begin
      state = mailroom.sending.pause(scope: "domain", name: name, reason: "DNS migration")
      first = domain_pause(state, name)
      refute_nil first, state.inspect
      assert_equal({ scope: "domain", name: name, reason: "DNS migration" }, first.slice(:scope, :name, :reason))
      assert_kind_of String, first[:paused_by]
      assert_kind_of Time, Time.iso8601(first[:paused_at])

      # Pausing what is paused keeps the first pause, its reason and time; string keys work too.
      again = mailroom.sending.pause("scope" => "domain", "name" => name, "reason" => "something else")
      assert_equal first, domain_pause(again, name)
      assert_equal first, domain_pause(mailroom.sending.get, name)

      resumed = mailroom.sending.resume(scope: "domain", name: name)
      assert_equal "sending", resumed[:object]
      assert_nil domain_pause(resumed, name)
      assert_nil domain_pause(mailroom.sending.get, name)
      # Nothing of this domain was held; other suites' recipients may have been.
      assert_kind_of Integer, resumed[:released]

      error = assert_raises(Mailroom::NotFoundError) { mailroom.sending.resume(scope: "domain", name: name) }
      assert_equal 404, error.status_code
    ensure
      resume_if_paused(mailroom, name)
      mailroom.domains.remove(domain[:id])
    end
  end

  def test_pauses_that_cannot_apply_are_refused
    mailroom = client
    provider = unique("nowhere")
    error = assert_raises(Mailroom::ValidationError) { mailroom.sending.pause(scope: "provider", name: provider) }
    assert_equal 400, error.status_code
    assert_equal "validation_error", error.name
    assert_equal ["name"], error.details.map { |d| d[:path] }
    assert_raises(Mailroom::ValidationError) { mailroom.sending.resume(scope: "provider", name: provider) }

    # An organisation pause names nothing; a scope must be one of the three; a domain must be the organisation's.
    assert_raises(Mailroom::ValidationError) { mailroom.sending.pause(scope: "organization", name: DOMAIN) }
    assert_raises(Mailroom::ValidationError) { mailroom.sending.pause(scope: "planet", name: DOMAIN) }
    stranger = "#{unique('nowhere')}.example.org"
    assert_raises(Mailroom::NotFoundError) { mailroom.sending.pause(scope: "domain", name: stranger) }
    assert_raises(ArgumentError) { mailroom.sending.pause(nil) }

    pauses = mailroom.sending.get[:pauses]
    assert_empty(pauses.select { |p| [provider, stranger].include?(p[:name]) })
  end

  def test_a_sending_key_cannot_pause
    sending = client(api_key: env("MAILROOM_SENDING_KEY"))
    assert_raises(Mailroom::InsufficientScopeError) { sending.sending.get }
    error = assert_raises(Mailroom::InsufficientScopeError) do
      sending.sending.pause(scope: "domain", name: DOMAIN, reason: "a sending key")
    end
    assert_equal 403, error.status_code
    assert_raises(Mailroom::InsufficientScopeError) { sending.sending.resume(scope: "domain", name: DOMAIN) }
  end
end
