export type { Diagnostic } from "./Diagnostic";
export type { Element } from "./Element";
export type { Severity } from "./Severity";
export type { Span } from "./Span";
export type { TypeInfo } from "./TypeInfo";
export type { ExportAnswer } from "./ExportAnswer";
export type * from "./hand-written";
