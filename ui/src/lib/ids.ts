// The ids of the built-in terminals. A node's id is chosen by Rust (an `add_node` or `paste`
// without ids; the answer's `created` names what it made), never guessed here.

export const START = "__start__";
export const END = "__end__";
