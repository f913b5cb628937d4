// The e-mails the project sends its end users: how the platform delivers them (SMTP or only the
// log), and the two templates — address confirmation and password reset — with their variables.
import { Alert, Button, Card, Code, Group, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { reportFormError } from '../../../lib/api-error.ts';
import type { MailTransport } from '../../settings/api/get-email-settings.ts';
import type { EmailTemplate, EmailTemplatesAnswer, TemplateName } from '../api/get-email-templates.ts';
import { useUpdateEmailTemplates } from '../api/update-email-templates.ts';

const TEMPLATES: Array<{ name: TemplateName; title: string; save: string; when: string }> = [
  { name: 'emailConfirmation', title: 'Email address confirmation', save: 'Save confirmation e-mail', when: 'Sent on registration while e-mail confirmation is required, and by send-email-confirmation.' },
  { name: 'resetPassword', title: 'Reset password', save: 'Save reset e-mail', when: 'Sent by forgot-password. URL is the reset password page of the Settings tab; without one, the default message gives the code alone.' },
];

export function MailTransportStatus({ transport }: { transport: MailTransport }) {
  return (
    <Alert color={transport.transport === 'smtp' ? 'teal' : 'yellow'} title="E-mail delivery" role="note" aria-label="E-mail delivery">
      <Text size="sm" data-testid="mail-transport">
        {transport.transport === 'smtp'
          ? `E-mails are sent through ${transport.host ?? 'the platform\'s SMTP server'}`
          : 'No SMTP server configured: e-mails are written to the platform\'s log'}
      </Text>
      <Text size="sm">Sender address: {transport.from} (the platform's; each template may set a sender name and a reply-to address).</Text>
    </Alert>
  );
}

const variableList = (names: string[]) => names.map((n, i) => <span key={n}>{i > 0 && ' '}<Code>{`<%= ${n} %>`}</Code></span>);

function TemplateForm({ slug, name, title, save, when, template, variables }: {
  slug: string; name: TemplateName; title: string; save: string; when: string; template: EmailTemplate; variables: EmailTemplatesAnswer['variables'][TemplateName];
}) {
  const saveTemplates = useUpdateEmailTemplates(slug);
  const [error, setError] = useState<string | null>(null);
  const toForm = (t: EmailTemplate) => ({ fromName: t.fromName ?? '', replyTo: t.replyTo ?? '', subject: t.subject, message: t.message });
  const form = useForm({ initialValues: toForm(template) });
  const submit = form.onSubmit(async (values) => {
    setError(null);
    try {
      const body = { [name]: { ...values, fromName: values.fromName.trim() || null, replyTo: values.replyTo.trim() || null } };
      const saved = await saveTemplates.mutateAsync(body);
      form.setInitialValues(toForm(saved.emailTemplates[name]));
      form.setValues(toForm(saved.emailTemplates[name]));
      notifications.show({ color: 'teal', message: `${title} template saved` });
    } catch (err) {
      // The API names fields `<template>.<field>`; this form holds one template.
      const mapped = (fields: Record<string, string>) => form.setErrors(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k.replace(`${name}.`, ''), v])));
      reportFormError(err, mapped, setError, 'Could not save');
    }
  });
  return (
    <Card withBorder>
      <Title order={3} size="h4">{title}</Title>
      <Text size="sm" c="dimmed" mb="sm">{when}</Text>
      <form onSubmit={submit} noValidate aria-label={`${title} template`}>
        <Stack>
          {error && <Alert color="red" role="alert">{error}</Alert>}
          <Group grow align="flex-start">
            <TextInput label="Sender name" placeholder="(none: the address alone)" {...form.getInputProps('fromName')} />
            <TextInput label="Reply-to address" type="email" placeholder="(none)" {...form.getInputProps('replyTo')} />
          </Group>
          <TextInput label="Subject" required {...form.getInputProps('subject')} />
          <Textarea
            label="Message" required autosize minRows={5} maxRows={20} styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            description="HTML, or plain text without tags. Values are inserted escaped in HTML."
            {...form.getInputProps('message')}
          />
          <Text size="sm" component="div">
            Variables in the subject: {variableList(variables.subject)}
            <br />
            In the message: {variableList(variables.message)}
          </Text>
          <Group>
            <Button type="submit" loading={form.submitting}>{save}</Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

export function EmailTemplatesPanel({ slug, templates, transport }: { slug: string; templates: EmailTemplatesAnswer; transport: MailTransport }) {
  return (
    <Stack>
      <MailTransportStatus transport={transport} />
      {TEMPLATES.map((t) => (
        <TemplateForm key={t.name} slug={slug} {...t} template={templates.emailTemplates[t.name]} variables={templates.variables[t.name]} />
      ))}
    </Stack>
  );
}
