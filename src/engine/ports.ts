// Types of what the engine receives through its ports (EnginePorts, the planner's input), defined here so
// that the engine imports no module: the modules that fill them (memory, connections) import these.

/** A memory item as the engine reads it, with its search score (the memory module's rows satisfy it). */
export interface MemoryHit {
  id: string;
  workspaceId: string;
  type: string;
  domain: string;
  scope: string;
  authority: number;
  tags: string[];
  content: Record<string, unknown>;
  body: string;
  version: number;
  createdAt: Date;
  updatedAt: Date;
  score: number;
}

/** The items related to a question, and how they were found. */
export interface MemorySearch {
  hits: MemoryHit[];
  /** Which tier answered: every word, any word, or the query with near-miss words corrected. */
  match: "all_words" | "any_word" | "similar" | "none";
  /** Near-miss words replaced by words of the workspace's memory (typo → word), when that tier answered. */
  corrected?: Record<string, string>;
  /**
   * For `related`: how many items the workspace holds, and how many of them hold each stem of the question
   * (0 for a stem none holds), for weighing the question's words. Absent when SQL answered.
   */
  frequencies?: { items: number; df: Record<string, number> };
}

/** An integration of the catalog, which a request may need connected. */
export interface CatalogIntegration {
  id: string;
  name: string;
  description: string;
  category: string;
  capabilities: string[];
  auth_type: "oauth2" | "api_key" | "bearer" | "basic";
  provider: string;
  /** API hosts its credentials may be sent to; empty when it is not reached over HTTP by a known host. */
  hosts: string[];
  tags: string[];
  install_time: string;
  popularity: number;
  featured: boolean;
}

