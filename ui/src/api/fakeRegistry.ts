// The registry the fake backend serves: a stand-in for the built-in registry of crates/spec,
// with the same kinds of fields (so the form, the browser and the tests see realistic types).
import type { TypeInfo } from "../bindings";

const str = (title: string, extra: Record<string, unknown> = {}) => ({ type: "string", title, ...extra });
const num = (title: string, minimum?: number, maximum?: number, extra: Record<string, unknown> = {}) => ({
  type: "number",
  title,
  ...(minimum !== undefined ? { minimum } : {}),
  ...(maximum !== undefined ? { maximum } : {}),
  ...extra,
});
const int = (title: string, minimum?: number, maximum?: number) => ({
  type: "integer",
  title,
  ...(minimum !== undefined ? { minimum } : {}),
  ...(maximum !== undefined ? { maximum } : {}),
});
const strings = (title: string) => ({ type: "array", title, items: { type: "string" } });
const obj = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: "object",
  additionalProperties: false,
  properties,
  required,
});

export const FAKE_TYPES: TypeInfo[] = [
  {
    type: "llm",
    title: "LLM call",
    category: "AI",
    description: "Calls a language model with a prompt built from state channels.",
    docs: "Sends the **prompt template** to a model and writes the answer to `output_channel`.\n\n- `temperature` goes from 0 to 2\n- `tools` names tools the model may call\n\n<script>alert('docs are never raw HTML')</script>",
    config_schema: obj(
      {
        model: str("Model", { minLength: 1 }),
        system: str("System prompt"),
        prompt: str("Prompt template"),
        temperature: num("Temperature", 0, 2),
        max_tokens: int("Max tokens", 1, 200000),
        tools: strings("Tool names"),
        output_channel: str("Output channel"),
      },
      ["model"],
    ),
    defaults: { model: "claude-opus-4-8", temperature: 0.7, max_tokens: 1024, tools: [] },
  },
  {
    type: "http",
    title: "HTTP request",
    category: "Integration",
    description: "Sends an HTTP request and stores the response.",
    docs: "Calls `url` with `method`. Headers are sent as given; the body is a template.",
    config_schema: obj(
      {
        url: str("URL", { format: "uri", minLength: 1 }),
        method: { type: "string", title: "Method", enum: ["GET", "POST", "PUT", "PATCH", "DELETE"] },
        headers: { type: "object", title: "Headers", additionalProperties: { type: "string" } },
        body: str("Body template"),
        timeout_ms: int("Timeout (ms)", 1, 600000),
      },
      ["url"],
    ),
    defaults: { url: "https://example.com/api", method: "GET", headers: {}, timeout_ms: 30000 },
  },
  {
    type: "tool",
    title: "Tool call",
    category: "Tools",
    description: "Runs a named tool with arguments taken from state.",
    config_schema: obj(
      {
        tool: str("Tool name", { minLength: 1 }),
        arguments: { type: "object", title: "Arguments", additionalProperties: { type: "string" } },
        output_channel: str("Output channel"),
      },
      ["tool"],
    ),
    defaults: { tool: "search", arguments: {} },
  },
  {
    type: "mcp_tool",
    title: "MCP tool call",
    category: "Tools",
    description: "Calls a tool on an MCP server.",
    config_schema: obj(
      {
        server: str("Server"),
        tool: str("Tool"),
        arguments: { type: "object", title: "Arguments", additionalProperties: { type: "string" } },
      },
      ["server", "tool"],
    ),
    defaults: { server: "local", tool: "read_file", arguments: {} },
  },
  {
    type: "set_value",
    title: "Set channel value",
    category: "State",
    description: "Writes a constant value to a channel.",
    config_schema: obj({ channel: str("Channel", { minLength: 1 }), value: { title: "Value" } }, ["channel"]),
    defaults: { channel: "status", value: "done" },
  },
  {
    type: "append_message",
    title: "Append message",
    category: "State",
    description: "Appends a chat message to the messages channel.",
    config_schema: obj(
      {
        role: { type: "string", title: "Role", enum: ["user", "assistant", "system"] },
        content: str("Content template"),
        channel: str("Channel"),
      },
      ["role"],
    ),
    defaults: { role: "assistant", content: "", channel: "messages" },
  },
  {
    type: "classifier",
    title: "Classifier",
    category: "AI",
    description: "Classifies the input into one of a set of labels and writes the label to a channel.",
    config_schema: obj(
      { model: str("Model"), labels: strings("Labels"), target_channel: str("Target channel"), input_channel: str("Input channel") },
      ["labels", "target_channel"],
    ),
    defaults: { model: "claude-haiku-4-5", labels: ["buy", "support", "other"], target_channel: "intent", input_channel: "messages" },
  },
  {
    type: "judge",
    title: "Judge",
    category: "Evaluation",
    description: "Asks a decision model questions about the state and routes on its verdict.",
    config_schema: obj(
      {
        seat: { type: "string", title: "Seat", enum: ["gate", "router", "critic"] },
        decision_model: str("Decision model"),
        questions: strings("Questions"),
        options: strings("Options"),
        confidence_threshold: num("Confidence threshold", 0, 1),
        timeout_s: int("Timeout (s)", 1, 3600),
        fallback: str("Fallback option"),
      },
      ["seat", "questions"],
    ),
    defaults: {
      seat: "gate",
      decision_model: "claude-sonnet-4-5",
      questions: ["Is the answer grounded?"],
      options: ["yes", "no"],
      confidence_threshold: 0.8,
      timeout_s: 60,
    },
  },
  {
    type: "human_approval",
    title: "Human approval",
    category: "Human",
    description: "Pauses until a person approves or rejects.",
    config_schema: obj({
      prompt: str("Question for the approver"),
      assignee: str("Assignee"),
      timeout_s: int("Timeout (s)", 1),
      required: { type: "boolean", title: "Required" },
    }),
    defaults: { prompt: "Approve?", required: true },
  },
  {
    type: "human_input",
    title: "Human input",
    category: "Human",
    description: "Asks a person for a value and writes it to a channel.",
    config_schema: obj({ question: str("Question"), channel: str("Channel") }, ["channel"]),
    defaults: { question: "", channel: "answer" },
  },
  {
    type: "retrieval",
    title: "Retrieval",
    category: "Retrieval",
    description: "Searches a vector index and writes the top matches.",
    config_schema: obj(
      { index: str("Index"), top_k: int("Top k", 1, 100), query_channel: str("Query channel"), output_channel: str("Output channel") },
      ["index"],
    ),
    defaults: { index: "docs", top_k: 5 },
  },
  {
    type: "wait",
    title: "Wait",
    category: "Control",
    description: "Waits a number of seconds before continuing.",
    config_schema: obj({ seconds: num("Seconds", 0, 86400) }, ["seconds"]),
    defaults: { seconds: 1 },
  },
  {
    type: "memory_read",
    title: "Memory read",
    category: "Memory",
    description: "Reads a key from long-term memory into a channel.",
    config_schema: obj({ namespace: str("Namespace"), key: str("Key"), channel: str("Channel") }, ["key", "channel"]),
    defaults: { namespace: "default", key: "profile", channel: "profile" },
  },
  {
    type: "memory_write",
    title: "Memory write",
    category: "Memory",
    description: "Writes a channel's value to long-term memory.",
    config_schema: obj({ namespace: str("Namespace"), key: str("Key"), channel: str("Channel") }, ["key", "channel"]),
    defaults: { namespace: "default", key: "profile", channel: "profile" },
  },
  {
    type: "noop",
    title: "No-op",
    category: "Control",
    description: "Does nothing; useful as a join point.",
    config_schema: obj({}),
    defaults: {},
  },
];
