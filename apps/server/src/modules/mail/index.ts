export { createMailRepo, type MailRepo, type OutboxMail } from './mail.repo';
export { createMailer, type Mailer, type MailMessage } from './mail.service';
export { mailRoutes } from './mail.routes';
