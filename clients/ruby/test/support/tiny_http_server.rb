# frozen_string_literal: true

require "socket"

# A scripted HTTP/1.1 server on 127.0.0.1:0 built on TCPServer (WEBrick is not available): it records every
# request and answers each from a script, so tests can stage 429s, 503s, silences, and receive webhooks.
class TinyHttpServer
  Request = Struct.new(:method, :path, :headers, :body, keyword_init: true)

  REASONS = { 200 => "OK", 400 => "Bad Request", 429 => "Too Many Requests", 503 => "Service Unavailable" }.freeze

  attr_reader :port

  # responder: called with (request, index); answers [status, headers, body] or :hang (never answers).
  def initialize(&responder)
    @responder = responder || ->(_request, _index) { [200, {}, ""] }
    @server = TCPServer.new("127.0.0.1", 0)
    @port = @server.addr[1]
    @requests = []
    @lock = Mutex.new
    @handlers = []
    @acceptor = Thread.new { accept_loop }
  end

  # Answers the given responses in order, repeating the last one.
  def self.scripted(*responses)
    new { |_request, index| responses[[index, responses.size - 1].min] }
  end

  def url
    "http://127.0.0.1:#{@port}"
  end

  def requests
    @lock.synchronize { @requests.dup }
  end

  def close
    @server.close unless @server.closed?
    @acceptor.kill
    @handlers.each(&:kill)
  end

  private

  def accept_loop
    loop do
      socket = @server.accept
      @handlers << Thread.new(socket) { |s| serve(s) }
    end
  rescue IOError, SystemCallError
    nil # closed
  end

  def serve(socket)
    request = read_request(socket)
    return unless request

    index = @lock.synchronize do
      @requests << request
      @requests.size - 1
    end
    answer = @responder.call(request, index)
    if answer == :hang
      sleep
    else
      write_response(socket, *answer)
    end
  rescue IOError, SystemCallError
    nil
  ensure
    socket.close unless socket.closed?
  end

  def read_request(socket)
    request_line = socket.gets("\r\n")
    return nil unless request_line

    method, path = request_line.split(" ", 3)
    headers = {}
    while (line = socket.gets("\r\n")) && line != "\r\n"
      name, value = line.split(":", 2)
      headers[name.strip.downcase] = value.to_s.strip
    end
    body = if headers["transfer-encoding"].to_s.downcase.include?("chunked")
             read_chunked(socket)
           else
             socket.read(headers.fetch("content-length", "0").to_i).to_s
           end
    Request.new(method: method, path: path, headers: headers, body: body)
  end

  def read_chunked(socket)
    body = +""
    loop do
      size = socket.gets("\r\n").to_s.to_i(16)
      break if size.zero?

      body << socket.read(size)
      socket.read(2)
    end
    socket.gets("\r\n")
    body
  end

  def write_response(socket, status, headers = {}, body = "")
    body = body.to_s
    head = ["HTTP/1.1 #{status} #{REASONS.fetch(status, 'Status')}", "Content-Length: #{body.bytesize}", "Connection: close"]
    head << "Content-Type: application/json" unless headers.keys.any? { |k| k.to_s.casecmp?("content-type") }
    headers.each { |k, v| head << "#{k}: #{v}" }
    socket.write("#{head.join("\r\n")}\r\n\r\n#{body}")
  end
end
