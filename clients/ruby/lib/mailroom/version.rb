# frozen_string_literal: true

# The gem's version, shared by the gemspec and the User-Agent header.
module Mailroom
  VERSION = "0.1.0"
end
