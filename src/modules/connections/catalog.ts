// The catalog of integrations a workspace can connect. Capabilities are "verb noun" phrases: what the
// engine matches a request against, and what a connection contributes once connected. `provider` names the
// credential provider that authorises it (a credential with that provider turns pending_auth to connected);
// `hosts` are the integration's API hosts, the only ones a credential of that provider is ever sent to
// (patterns as in credentials/hosts.ts: `*.example.com` is any subdomain).

import type { CatalogIntegration } from "../../engine/ports.ts";

export type { CatalogIntegration };
export const CATEGORIES: Record<string, string> = {
  communication: "Messages, mail and calls",
  calendar: "Meetings and schedules",
  engineering: "Code, issues and deployments",
  project_management: "Tasks and projects",
  knowledge: "Documents and wikis",
  crm: "Customers and deals",
  support: "Tickets and conversations",
  commerce: "Payments, orders and refunds",
  operations: "Incidents, monitoring and infrastructure",
  data: "Databases and generic APIs",
};

const integration = (
  id: string,
  name: string,
  category: string,
  description: string,
  capabilities: string[],
  auth_type: CatalogIntegration["auth_type"],
  popularity: number,
  extra: Partial<CatalogIntegration> = {},
): CatalogIntegration => ({
  id,
  name,
  category,
  description,
  capabilities,
  auth_type,
  provider: id,
  hosts: [],
  tags: [category],
  install_time: auth_type === "oauth2" ? "60s" : "30s",
  popularity,
  featured: popularity >= 90,
  ...extra,
});

export const CATALOG: CatalogIntegration[] = [
  integration("slack", "Slack", "communication", "Post messages to channels and people, read channel history.", ["send message", "post message", "read channel", "list channels", "send notification"], "oauth2", 98, { hosts: ["slack.com", "*.slack.com"] }),
  integration("gmail", "Gmail", "communication", "Send, read and search e-mail in Google Workspace.", ["send email", "read email", "search email", "draft email", "reply email"], "oauth2", 96, { provider: "google", hosts: ["gmail.googleapis.com", "www.googleapis.com"] }),
  integration("outlook", "Outlook", "communication", "Send and read Microsoft 365 e-mail.", ["send email", "read email", "search email", "reply email"], "oauth2", 88, { provider: "microsoft", hosts: ["graph.microsoft.com", "outlook.office.com", "outlook.office365.com"] }),
  integration("microsoft_teams", "Microsoft Teams", "communication", "Post messages to Teams channels and chats.", ["send message", "post message", "read channel", "schedule meeting"], "oauth2", 86, { provider: "microsoft", hosts: ["graph.microsoft.com"] }),
  integration("twilio", "Twilio", "communication", "Send SMS and make phone calls.", ["send sms", "send text message", "make call", "send notification"], "basic", 80, { hosts: ["api.twilio.com", "*.twilio.com"] }),
  integration("google_calendar", "Google Calendar", "calendar", "Create, move and list events and meetings.", ["create event", "schedule meeting", "list events", "update event", "cancel event", "find availability"], "oauth2", 93, { provider: "google", hosts: ["www.googleapis.com"] }),
  integration("github", "GitHub", "engineering", "Issues, pull requests, repositories and workflow runs.", ["create issue", "list issues", "comment issue", "create pull request", "merge pull request", "trigger workflow", "create release"], "bearer", 97, { hosts: ["api.github.com", "uploads.github.com"] }),
  integration("gitlab", "GitLab", "engineering", "Issues, merge requests and pipelines.", ["create issue", "list issues", "create merge request", "trigger pipeline", "create release"], "bearer", 82, { hosts: ["gitlab.com"] }),
  integration("jira", "Jira", "project_management", "Create and update issues and sprints.", ["create ticket", "create issue", "update issue", "transition issue", "list issues", "assign issue"], "basic", 94, { provider: "atlassian", hosts: ["*.atlassian.net", "api.atlassian.com"] }),
  integration("linear", "Linear", "project_management", "Issues and projects for product teams.", ["create issue", "update issue", "list issues", "assign issue"], "api_key", 84, { hosts: ["api.linear.app"] }),
  integration("asana", "Asana", "project_management", "Tasks and projects.", ["create task", "update task", "list tasks", "assign task", "complete task"], "oauth2", 81, { hosts: ["app.asana.com"] }),
  integration("notion", "Notion", "knowledge", "Pages and databases of a workspace wiki.", ["create page", "update page", "search pages", "query database"], "bearer", 89, { hosts: ["api.notion.com"] }),
  integration("google_drive", "Google Drive", "knowledge", "Files and folders.", ["upload file", "share file", "search files", "create folder", "read file"], "oauth2", 90, { provider: "google", hosts: ["www.googleapis.com"] }),
  integration("salesforce", "Salesforce", "crm", "Accounts, contacts, leads and opportunities.", ["create lead", "update opportunity", "search contacts", "create contact", "update account"], "oauth2", 91, { hosts: ["*.salesforce.com", "*.force.com"] }),
  integration("hubspot", "HubSpot", "crm", "Contacts, companies and deals.", ["create contact", "update deal", "search contacts", "create deal", "send marketing email"], "bearer", 87, { hosts: ["api.hubapi.com"] }),
  integration("zendesk", "Zendesk", "support", "Support tickets and help-center articles.", ["create ticket", "update ticket", "reply ticket", "search tickets", "close ticket"], "bearer", 88, { hosts: ["*.zendesk.com"] }),
  integration("intercom", "Intercom", "support", "Customer conversations and contacts.", ["reply conversation", "create conversation", "search conversations", "tag conversation"], "bearer", 79, { hosts: ["api.intercom.io", "api.eu.intercom.io", "api.au.intercom.io"] }),
  integration("stripe", "Stripe", "commerce", "Payments, refunds, customers and subscriptions.", ["create payment", "refund payment", "create refund", "create customer", "cancel subscription", "create invoice"], "api_key", 95, { hosts: ["api.stripe.com", "files.stripe.com"] }),
  integration("shopify", "Shopify", "commerce", "Orders, products and fulfilment of a store.", ["create order", "cancel order", "refund order", "update product", "fulfill order", "list orders"], "api_key", 85, { hosts: ["*.myshopify.com"] }),
  integration("pagerduty", "PagerDuty", "operations", "Incidents and on-call.", ["create incident", "acknowledge incident", "resolve incident", "page on-call", "list incidents"], "api_key", 83, { hosts: ["api.pagerduty.com", "events.pagerduty.com"] }),
  integration("datadog", "Datadog", "operations", "Metrics, monitors and events.", ["query metrics", "create monitor", "mute monitor", "post event", "search logs"], "api_key", 82, { hosts: ["*.datadoghq.com", "*.datadoghq.eu", "*.ddog-gov.com"] }),
  integration("aws", "Amazon Web Services", "operations", "EC2, S3, Lambda and more.", ["start instance", "stop instance", "upload object", "invoke function", "scale service", "deploy service"], "api_key", 92, { hosts: ["*.amazonaws.com"] }),
  integration("postgres", "PostgreSQL", "data", "Run queries against a PostgreSQL database.", ["run query", "read table", "insert row", "update row", "delete row"], "basic", 78),
  integration("http", "HTTP request", "data", "Call any HTTP API.", ["http request", "call api", "send webhook"], "bearer", 75),
  integration("confluence", "Confluence", "knowledge", "Spaces and pages of a team wiki.", ["create page", "update page", "search pages"], "basic", 80, { provider: "atlassian", hosts: ["*.atlassian.net", "api.atlassian.com"] }),
  integration("trello", "Trello", "project_management", "Boards, lists and cards.", ["create card", "move card", "list cards", "assign card"], "api_key", 74, { hosts: ["api.trello.com"] }),
  integration("sendgrid", "SendGrid", "communication", "Transactional and marketing e-mail.", ["send email", "send marketing email"], "api_key", 77, { hosts: ["api.sendgrid.com"] }),
  integration("docusign", "DocuSign", "knowledge", "Send documents for signature.", ["send envelope", "request signature", "check signature status"], "oauth2", 76, { hosts: ["*.docusign.net", "account.docusign.com", "account-d.docusign.com"] }),
];

export const CATALOG_BY_ID = new Map(CATALOG.map((entry) => [entry.id, entry]));

/**
 * The API hosts a credential of `provider` may be sent to (every integration of that provider), or
 * undefined when the catalog knows none (a custom provider, `http`, `postgres`).
 */
export function providerHosts(provider: string): string[] | undefined {
  const hosts = [...new Set(CATALOG.filter((entry) => entry.provider === provider).flatMap((entry) => entry.hosts))];
  return hosts.length > 0 ? hosts : undefined;
}
